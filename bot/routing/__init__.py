"""Commands and buttons declared with their access; replies; taps; guards."""
