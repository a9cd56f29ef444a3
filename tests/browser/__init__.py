"""Browser tests of the calculator page (pytest-playwright, Debian Chromium)."""
