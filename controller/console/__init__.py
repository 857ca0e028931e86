"""The dealer console: a touch-screen page beside the table and a read-only pit view.

::

    page (browser) --HTTP/WebSocket--> app (Starlette on uvicorn, asyncio thread)
                                         | submit(command) -> Future
                                         v
    devices (shoe, shuffler) ------> TableLoop (one thread: the round engine, the feed, the players)
                                         | snapshot after every change
                                         v
                                       pages (WebSocket pushes the whole view)

The table loop (``controller.engine.loop``) runs the table on one thread, so
the round engine never sees two callers, and decides what each page may show
(``controller.engine.view``); the console is an adapter on it: ``app`` turns
taps into the loop's commands, serves the pages and checks the logins and the
supervisor's PIN; ``server`` and ``runner`` start it all.
"""
