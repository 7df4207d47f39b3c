"""Full-screen and modal screens: campaign picker, campaign settings, character form."""
