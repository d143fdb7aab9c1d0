"""Stand-ins for ``triton.experimental.gluon.language.amd`` (Triton 3.6): its layout classes."""

from .._gluon_standins import AMDMFMALayout, AMDWMMALayout  # noqa: F401
