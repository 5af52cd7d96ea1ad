"""The serial monitor, shaped for a model: lines classified (`lines`), boots with
their reset reasons and reset loops (`boots`), panics decoded against the ELF
(`panic`), sources (a serial port, a recording) and recordings (`sources`), sessions
with cursors and waits (`session`), and the collapsed, filtered output (`shape`)."""
