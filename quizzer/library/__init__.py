"""The deck library on disk: bundled and imported decks, the parsed-deck cache, the importer."""
