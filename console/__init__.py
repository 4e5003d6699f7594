"""The operators' side: accounts and sign-in, the decisions they send to the approval
workflows (operations.py), and the web console (web/). It imports workflows/ (the Temporal
layer) and callcenter/; nothing below imports it."""
