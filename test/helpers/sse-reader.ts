// Reads an SSE response body as text, frame pattern by frame pattern.

/** Reads SSE frames from a response body until `want` matches one (or the stream ends). */
export function sseReader(res: Response) {
  const r = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  return {
    async until(want: RegExp): Promise<string | null> {
      for (;;) {
        const m = want.exec(buf);
        if (m) {
          buf = buf.slice(m.index + m[0].length);
          return m[0];
        }
        const { done, value } = await r.read();
        if (done) return null;
        buf += dec.decode(value, { stream: true });
      }
    },
    /** Resolves with everything left once the server ends the stream. */
    async rest(): Promise<string> {
      for (;;) {
        const { done, value } = await r.read();
        if (done) return buf;
        buf += dec.decode(value, { stream: true });
      }
    },
    cancel: () => r.cancel(),
  };
}
