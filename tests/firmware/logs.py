"""Serial output for the monitor tests, in the shapes ESP-IDF and the ROM print.

Sources (short excerpts, Apache-2.0):

* ESP32_BOOT: espressif/esp-idf-monitor test/host_test/inputs/in1.txt, lines 1-14
  (an ESP32's ROM lines and the second-stage bootloader's coloured log).
* ESP32_TWO_RESETS: the same project's inputs/in2.txt, lines 1-6 (a power-on reset,
  then an RTC watchdog reset).
* C3_ROM_BANNER: esp-idf-monitor test/host_test/test_monitor.py (the ESP32-C3 ROM
  banner); C3_RST_*: the ROM's rst: line, whose reason names are the ESP32-C3 ROM's
  RESET_REASON enum (esp-idf components/esp_rom/include/esp32c3/rom/rtc.h:
  12 RTC_SW_CPU_RESET, 16 RTCWDT_RTC_RESET), printed with the _RST ending ESP-IDF's
  docs/en/api-guides/fatal-errors.rst shows for the ESP32-C3 (``rst:0x10
  (RTCWDT_RTC_RST)``).
* c3_panic(): docs/en/api-guides/fatal-errors.rst, the RISC-V register dump, with MEPC
  and RA set to addresses of the test image (so the panic decodes against its ELF);
  the guru meditation line for a "Load access fault" (same document, "Instruction
  Access Fault, Load Access Fault, Store Access Fault"), then ``Rebooting...``.
* BROWNOUT: fatal-errors.rst, "Brownout".
* TASK_WDT: esp-idf components/esp_system/task_wdt/task_wdt.c's message.
"""

ESP32_BOOT = """\
ets Jun  8 2016 00:22:57
rst:0x1 (POWERON_RESET),boot:0x33 (SPI_FAST_FLASH_BOOT)
configsip: 0, SPIWP:0xee
clk_drv:0x00,q_drv:0x00,d_drv:0x00,cs0_drv:0x00,hd_drv:0x00,wp_drv:0x00
mode:DIO, clock div:2
load:0x3fff0018,len:4
load:0x3fff001c,len:5728
ho 0 tail 12 room 4
load:0x40078000,len:0
load:0x40078000,len:14944
entry 0x4007862c
\x1b[0;32mI (30) boot: ESP-IDF v3.1-dev-1320-gec1fb521b-dirty 2nd stage bootloader\x1b[0m
\x1b[0;32mI (30) boot: compile time 09:31:02\x1b[0m
\x1b[0;32mI (40) boot: Enabling RNG early entropy source...\x1b[0m
"""

ESP32_TWO_RESETS = """\
ets Jun  8 2016 00:22:57

rst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)
ets Jun  8 2016 00:22:57

rst:0x10 (RTCWDT_RTC_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)
"""

C3_ROM_BANNER = "ESP-ROM:esp32c3-api1-20210207\nBuild:Feb  7 2021\n"
C3_RST_POWERON = "rst:0x1 (POWERON),boot:0xc (SPI_FAST_FLASH_BOOT)\n"
C3_RST_SW_CPU = "rst:0xc (RTC_SW_CPU_RST),boot:0xc (SPI_FAST_FLASH_BOOT)\n"
C3_RST_RTCWDT = "rst:0x10 (RTCWDT_RTC_RST),boot:0xc (SPI_FAST_FLASH_BOOT)\n"

BROWNOUT = "Brownout detector was triggered\n"
TASK_WDT = "E (5313) task_wdt: Task watchdog got triggered. The following tasks/users did not reset the watchdog in time:\n"


def c3_panic(mepc: int, ra: int) -> str:
    return f"""\
Guru Meditation Error: Core  0 panic'ed (Load access fault). Exception was unhandled.

Core  0 register dump:
MEPC    : 0x{mepc:08x}  RA      : 0x{ra:08x}  SP      : 0x3fc8f2f0  GP      : 0x3fc8a600
TP      : 0x3fc8a2ac  T0      : 0x40057fa6  T1      : 0x0000000f  T2      : 0x00000000
S0/FP   : 0x00000000  S1      : 0x00000000  A0      : 0x00000001  A1      : 0x00000001
A2      : 0x00000064  A3      : 0x00000004  A4      : 0x00000001  A5      : 0x00000000
A6      : 0x42001fd6  A7      : 0x00000000  S2      : 0x00000000  S3      : 0x00000000
S4      : 0x00000000  S5      : 0x00000000  S6      : 0x00000000  S7      : 0x00000000
S8      : 0x00000000  S9      : 0x00000000  S10     : 0x00000000  S11     : 0x00000000
T3      : 0x00000000  T4      : 0x00000000  T5      : 0x00000000  T6      : 0x00000000
MSTATUS : 0x00001881  MTVEC   : 0x40380001  MCAUSE  : 0x00000005  MTVAL   : 0x00000000
MHARTID : 0x00000000

Rebooting...
"""
