public enum TrackSynthesis {}
