"""Renderers: rules results and the campaign as Russian text, Markdown, JSON."""
