"""Sessions: practice over the bank with spaced repetition; pure logic, no UI, no printing."""
