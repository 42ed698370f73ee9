/**
 * Text a terminal shows as it is: control characters (escape sequences a server or a document could carry
 * included) become `\uXXXX`, line breaks and tabs become spaces.
 */
export function printable(text: string): string {
  return text
    .replace(/[\t\n\r]+/g, ' ')
    .replace(
      /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}
