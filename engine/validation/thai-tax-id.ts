/**
 * Thai tax identification number (also the citizen id): 13 digits, the last a
 * check digit. sum = Σ d[i] * (13 - i) for i = 0..11; check = (11 - sum mod 11) mod 10.
 */
export function isValidThaiTaxId(value: string): boolean {
  if (!/^[0-9]{13}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(value[i]) * (13 - i);
  return (11 - (sum % 11)) % 10 === Number(value[12]);
}
