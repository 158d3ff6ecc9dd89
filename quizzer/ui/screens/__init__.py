"""The quiz screens: home, study, summary and help."""
