import { useEffect, useState } from 'react';
import { fetchFileBlob } from '../core/file-api.ts';

/** Object URLs of images already fetched: a list page and its picker show the same thumbnails without asking again. */
const cache = new Map<string, Promise<string | null>>();
const MAX_KEPT = 300;

function imageUrl(id: string): Promise<string | null> {
  let p = cache.get(id);
  if (!p) {
    if (cache.size >= MAX_KEPT) {
      const [oldest, url] = cache.entries().next().value!;
      cache.delete(oldest);
      void url.then((u) => { if (u) URL.revokeObjectURL(u); });
    }
    // files are read with the session token, so an <img src> of the API cannot show them: a blob URL can
    p = fetchFileBlob(id).then(({ blob }) => URL.createObjectURL(blob), () => null);
    cache.set(id, p);
  }
  return p;
}

/** A small image of a stored file (the product image in the product list and picker). */
export function Thumbnail({ id, alt = '' }: { id: string; alt?: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void imageUrl(id).then((u) => { if (live) setUrl(u); });
    return () => { live = false; };
  }, [id]);
  return url ? <img className="bo-thumb" src={url} alt={alt} data-testid="thumbnail" /> : <span className="bo-thumb bo-thumb-empty" aria-hidden="true" />;
}
