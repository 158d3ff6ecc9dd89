"""The Textual app: screens, widgets and display preparation for every script."""
