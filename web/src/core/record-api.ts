import { api, ApiError } from './http-client.ts';

export type RecordAnswer<T> = { success: true; data: T } | { success: false; error: ApiError };

/**
 * GET /api/{entity}/{id} for the record screens. Following spec section 8 for
 * the working record call, a failure is logged and swallowed: the answer is
 * {success:false, error} and the screen shows a toast and the message.
 */
export async function readRecord<T = Record<string, unknown>>(entity: string, id: number, fields?: string[]): Promise<RecordAnswer<T>> {
  try {
    const r = await api.get<{ success: boolean; data: T }>(`/api/${entity}/${id}`, fields ? { searchParams: { fields: fields.join(',') } } : undefined);
    return { success: true, data: r.data };
  } catch (err) {
    const error = err instanceof ApiError ? err : new ApiError(500, String(err));
    console.error(`GET /api/${entity}/${id} failed:`, error.message);
    return { success: false, error };
  }
}
