"""Code that runs *inside* the sandbox. Keep it small, stdlib-only, and import-light."""
