"""A TCP forwarder between graphmem and the test Neo4j that a test can cut: the network (or
the server) going away, for one ``Memory``, without stopping the server the other tests
share. Real sockets, real driver, real server behind it."""

from __future__ import annotations

import contextlib
import socket
import threading


class Forwarder:
    """Listens on 127.0.0.1 (``port``) and forwards each connection to ``target``;
    ``cut()`` closes the listener and every connection: nothing reaches Neo4j any more,
    new connections are refused."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._cut = False
        threading.Thread(target=self._accept, daemon=True).start()

    @classmethod
    def to(cls, uri: str) -> Forwarder:
        host, port = uri.rsplit("//", 1)[1].rsplit(":", 1)
        return cls(host, int(port))

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            sockets, self._sockets = self._sockets, []
        with contextlib.suppress(OSError):
            self._listener.close()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._cut:
                    client.close()
                    server.close()
                    return
                self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
