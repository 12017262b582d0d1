/** A multipart body with one file, as a browser sends it. */
export function multipart(name: string, content: Buffer, field = 'file'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----bo-test-boundary-7f3a';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
