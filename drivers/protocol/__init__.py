"""The reference protocol: frames (``frame``), messages (``messages``) and the reliable link (``link``)."""
