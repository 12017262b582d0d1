import { scrypt, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * scrypt with OWASP's recommended cost (N=2^17, r=8, p=1). Parameters are
 * stored with each hash, so raising the cost later still verifies old hashes.
 */
export const DEFAULT_LOG_N = 17;
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, 32, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, logN = DEFAULT_LOG_N): Promise<string> {
  const salt = randomBytes(16);
  const n = 2 ** logN;
  const key = await scryptAsync(password, salt, n, 8, 1);
  return `scrypt$${n}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A problem with a new password, or null when it is acceptable (ASVS: length rules only, no composition rules). */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'must be text';
  if ([...password].length < MIN_PASSWORD) return `must be at least ${MIN_PASSWORD} characters`;
  if ([...password].length > MAX_PASSWORD) return `must be at most ${MAX_PASSWORD} characters`;
  return null;
}
