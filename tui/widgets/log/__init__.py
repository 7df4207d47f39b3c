"""The Журнал tab and the luck statistics it opens."""
