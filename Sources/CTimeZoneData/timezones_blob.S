// Embeds timezones.bin (found through the include path set in Package.swift).
    .section .rodata.tsnap_timezones,"a"
    .balign 16
    .globl tsnap_timezone_blob_start
tsnap_timezone_blob_start:
    .incbin "timezones.bin"
    .globl tsnap_timezone_blob_end
tsnap_timezone_blob_end:
    .section .note.GNU-stack,"",@progbits
