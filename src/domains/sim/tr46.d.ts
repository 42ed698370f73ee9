/** The part of tr46 (UTS #46 IDNA processing, https://github.com/jsdom/tr46) kennel uses. */
declare module 'tr46' {
  export interface Tr46Options {
    checkHyphens?: boolean;
    checkBidi?: boolean;
    checkJoiners?: boolean;
    useSTD3ASCIIRules?: boolean;
    transitionalProcessing?: boolean;
    verifyDNSLength?: boolean;
    ignoreInvalidPunycode?: boolean;
  }
  /** The ASCII (punycode) form, or null when the name is not valid under UTS #46. */
  export function toASCII(domainName: string, options?: Tr46Options): string | null;
  export function toUnicode(domainName: string, options?: Tr46Options): { domain: string; error: boolean };
}
