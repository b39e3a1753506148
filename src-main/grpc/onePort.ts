// One port, every protocol: a connection that opens with the HTTP/2 preface (gRPC clients speak HTTP/2 in the
// clear, "h2c", with prior knowledge) goes to an HTTP/2 server; any other goes on to the HTTP/1.1 server as before,
// byte for byte. gRPC-Web and Connect also come over HTTP/1.1: the HTTP server hands their paths to the same door.
import type { Server } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Serves HTTP/2 connections on `server`'s port with `handler`; HTTP/1.1 connections stay with `server`. */
export function acceptHttp2(server: Server, handler: (req: Http2ServerRequest, res: Http2ServerResponse) => void): void {
  const http2 = createHttp2Server({}, handler);
  const sessions = new Set<ServerHttp2Session>();
  http2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const http1 = server.listeners('connection') as ((socket: Socket) => void)[];
  // Connections that have not sent their first bytes belong to neither server yet, so neither closes them nor
  // times them out (a browser's preconnected socket may never speak): they are kept here until they do.
  const undecided = new Set<Socket>();
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    let head = Buffer.alloc(0);
    undecided.add(socket);
    socket.setTimeout(server.headersTimeout, () => socket.destroy());
    socket.once('close', () => undecided.delete(socket));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const n = Math.min(head.length, PREFACE.length);
      const h2 = head.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (h2 && head.length < PREFACE.length) return; // a preface split across packets: read on
      undecided.delete(socket);
      socket.setTimeout(0);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.pause();
      socket.unshift(head);
      if (h2) http2.emit('connection', socket);
      else {
        for (const listener of http1) listener.call(server, socket);
        socket.resume(); // Node's HTTP/1.1 parser takes the bytes read here from the stream, the rest from the socket
      }
    };
    const onError = () => socket.destroy();
    socket.on('data', onData);
    socket.on('error', onError);
  });
  // server.close() ends idle HTTP/1.1 connections itself; an HTTP/2 session ends once its calls in flight end;
  // a connection that never spoke ends now.
  const close = server.close.bind(server);
  server.close = (callback?: (err?: Error) => void) => {
    for (const socket of undecided) socket.destroy();
    for (const session of sessions) session.close();
    return close(callback);
  };
}

/**
 * `server` behind TLS (`outpost serve --tls-cert --tls-key`), for clients that insist on it: ALPN offers h2 and
 * http/1.1, and each decrypted connection goes to `server` as a cleartext one would (acceptHttp2 sorts them).
 */
export function behindTls(server: Server, credentials: { readonly cert: Buffer; readonly key: Buffer }): TlsServer {
  const tls = createTlsServer({ ...credentials, ALPNProtocols: ['h2', 'http/1.1'] }, (socket) => server.emit('connection', socket));
  // Closing it closes `server` too: its idle HTTP/1.1 connections and its HTTP/2 sessions end, so the TLS ones do.
  const close = tls.close.bind(tls);
  tls.close = (callback?: (err?: Error) => void) => {
    server.close();
    return close(callback);
  };
  return tls;
}
