"""The product's settings, grouped by who reads them; `callcenter.settings.Settings` joins them.

Each group reads the same `CALLCENTER_*` names as the whole: a part that needs only one group
may take (and `load_section`) that group alone.
"""
