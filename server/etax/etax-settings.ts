import { readSigningSettings, type SigningSettings } from './etax-signer.ts';

/**
 * e-Tax settings, from the environment (README, Environment):
 * - ETAX_P12_PATH / ETAX_P12_PASSWORD: the company's signing certificate (PKCS#12); without it the XML is
 *   not signed.
 * - ETAX_RD_EMAIL: the address of the Revenue Department's timestamp service of ETDA's "e-Tax Invoice by
 *   Email" scheme; when set, an e-Tax e-mail goes to it too (cc, as the scheme asks). Not written into the
 *   code: the service's address is the operator's to set, and changes with the scheme.
 */
export interface EtaxSettings {
  signing: SigningSettings | null;
  rdEmail: string | null;
}

const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;

export function readEtaxSettings(env: NodeJS.ProcessEnv): EtaxSettings {
  const rd = env.ETAX_RD_EMAIL?.trim() || null;
  if (rd && !ADDRESS.test(rd)) throw new Error(`ETAX_RD_EMAIL is not an e-mail address: ${rd}`);
  if (!env.ETAX_P12_PATH?.trim() && env.ETAX_P12_PASSWORD) throw new Error('ETAX_P12_PASSWORD is set without ETAX_P12_PATH');
  return { signing: readSigningSettings(env), rdEmail: rd };
}
