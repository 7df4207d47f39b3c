"""The bestiary on the table engine: NPCs added from templates, prepared encounters loaded
into a fight and taken out after it — each one step, one undo step."""
