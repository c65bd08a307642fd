"""The interactive explorer (ipywidgets): six tabs over one shared state.

>>> app = App()
>>> sorted(app.tabs)
['backends', 'gradients', 'kernels', 'libraries', 'modes', 'pick']
"""

from .app import App, explore
from .state import DEFAULTS, TABS, State

__all__ = ["App", "explore", "State", "DEFAULTS", "TABS"]
