"""A QA set over documents the project has never seen (``docs/``, ``questions.json``), its model and its scorer."""
