"""The interactive explorer (ipywidgets + matplotlib): six tabs over one shared state.

>>> app = App(display="image")
>>> sorted(app.tabs)
['backends', 'gradients', 'kernels', 'libraries', 'modes', 'pick']
"""

from .app import App, explore
from .state import DEFAULTS, TABS, State

__all__ = ["App", "explore", "State", "DEFAULTS", "TABS"]
