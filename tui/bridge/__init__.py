"""Between the campaign (store characters, documents) and the rules objects."""
