"""Background training jobs, each trained in a child process of the server: the queue (queue), the training processes
(worker) and their fork server (fork_server), and the training-slots setting (slots).

Never imports Streamlit or plotly: the app's side of a job is in ui.training, and deploy/classroom.py reads the slots
setting from here without importing torch (this file imports nothing).
"""
