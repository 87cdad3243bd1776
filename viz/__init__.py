"""Plotly figure builders by topic: tensors or arrays in, go.Figure out; every visible label is a keyword
argument. viz/ never imports streamlit; the pages call these builders.
"""
