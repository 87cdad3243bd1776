"""Placeholder until the app issue builds the pages."""

import streamlit as st

st.title("Transformer playground")
