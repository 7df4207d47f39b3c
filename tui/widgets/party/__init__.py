"""The Партия tab: the party table, the character sheet, its form."""
