"""The dealer console: a touch-screen page beside the table and a read-only pit view.

::

    page (browser) --HTTP/WebSocket--> app (Starlette on uvicorn, asyncio thread)
                                         | submit(command) -> Future
                                         v
    devices (shoe, shuffler) ------> TableLoop (one thread: the round engine, the feed, the players)
                                         | snapshot after every change
                                         v
                                       pages (WebSocket pushes the whole view)

``session`` runs the table on one thread, so the round engine never sees two
callers; ``view`` turns the round into what the pages show; ``app`` serves the
pages and checks the session and supervisor tokens; ``server`` starts it all.
"""
