/** A text in both languages of the product: Thai first. */
export interface LocalizedText {
  th: string;
  en: string;
}
