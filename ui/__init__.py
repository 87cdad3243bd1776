"""Streamlit-side helpers shared by app.py and the pages (the transformer package never imports these)."""
