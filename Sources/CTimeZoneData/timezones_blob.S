// Embeds timezones.bin (found through the include path set in Package.swift). The build does
// not track the included file: after regenerating it, touch this file.
    .section .rodata.tsnap_timezones,"a"
    .balign 16
    .globl tsnap_timezone_blob_start
tsnap_timezone_blob_start:
    .incbin "timezones.bin"
    .globl tsnap_timezone_blob_end
tsnap_timezone_blob_end:
    .section .note.GNU-stack,"",@progbits
