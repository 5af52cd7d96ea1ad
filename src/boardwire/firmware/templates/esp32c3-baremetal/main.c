/* @NAME@: bare-metal ESP32-C3 firmware for @BOARD@.
 * Blinks the LED on GPIO @LED_GPIO@ and prints a line per blink on UART0 (115200 baud).
 * The board's pins are listed in AGENTS.md (from the KiCad schematic). */
#include <stdint.h>
#include <stdio.h>

#define LED_GPIO @LED_GPIO@

/* ESP32-C3 ROM functions (addresses in esp32c3.ld) */
extern int ets_printf(const char *fmt, ...);
extern void ets_delay_us(uint32_t us);
extern void disable_default_watchdog(void);
extern void gpio_output_set(uint32_t set, uint32_t clear, uint32_t enable, uint32_t disable);
extern void gpio_pad_select_gpio(uint32_t gpio);

static unsigned blinks;

static void led(int on)
{
    uint32_t bit = 1u << LED_GPIO;
    gpio_output_set(on ? bit : 0, on ? 0 : bit, bit, 0);
}

int main(void)
{
    char line[48];
    disable_default_watchdog();
    gpio_pad_select_gpio(LED_GPIO);
    ets_printf("@NAME@ started\n");
    for (;;) {
        led(blinks & 1);
        snprintf(line, sizeof line, "blink %u\n", blinks++);
        ets_printf("%s", line);
        ets_delay_us(500000);
    }
}
