"""The interactive explorer (ipywidgets): six tabs over one shared state.

>>> app = App()
>>> sorted(app.tabs)
['backends', 'gradients', 'kernels', 'libraries', 'modes', 'pick']
"""

from .app import App, explore
from .state import DEFAULTS, TABS, State

__all__ = ["DEFAULTS", "TABS", "App", "State", "explore"]
