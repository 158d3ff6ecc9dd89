"""Tests that run the store through real sync engines: Syncthing, git, copied files."""
