/**
 * MCP results as the text a tool result carries: text as is, structured content as JSON, images and
 * audio as a note (the model gets no pixels through a tool result here), embedded resources by their
 * text. Size limits are the registry's (clipOutput).
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

type Content = CallToolResult['content'][number];
type ResourceContents = ReadResourceResult['contents'][number];

/** Bytes a base64 string decodes to, for the note that stands for binary content. */
const decodedBytes = (base64: string) => Math.floor((base64.replace(/=+$/, '').length * 3) / 4);

function resourceText(resource: ResourceContents): string {
  if ('text' in resource && typeof resource.text === 'string') return resource.text;
  const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
  return `[binary resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}, ${decodedBytes(blob)} bytes: not shown]`;
}

function contentText(item: Content): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
      return `[image (${item.mimeType}, ${decodedBytes(item.data)} bytes): images from MCP tools are not passed to the model]`;
    case 'audio':
      return `[audio (${item.mimeType}, ${decodedBytes(item.data)} bytes): not passed to the model]`;
    case 'resource_link':
      return `[resource link: ${item.uri}${item.name ? ` (${item.name})` : ''}${item.description ? ` — ${item.description}` : ''}]`;
    case 'resource':
      return resourceText(item.resource);
    default:
      return `[content of type ${JSON.stringify((item as { type: unknown }).type)}: not shown]`;
  }
}

/** Whether a text block is the structured content written as JSON (servers are asked to send both). */
function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** The text of a tools/call result; `isError` is the caller's to act on. */
export function callResultText(result: CallToolResult): string {
  const blocks = (result.content ?? []).map(contentText);
  const structured = result.structuredContent;
  if (structured !== undefined && !blocks.some((text) => sameJson(text, structured))) {
    blocks.push(blocks.length > 0 ? `structured content:\n${JSON.stringify(structured, null, 2)}` : JSON.stringify(structured, null, 2));
  }
  return blocks.length > 0 ? blocks.join('\n\n') : '(the tool returned no content)';
}

export function readResourceText(result: ReadResourceResult): string {
  if (result.contents.length === 0) return '(the resource is empty)';
  return result.contents.map((item) => (result.contents.length > 1 ? `--- ${item.uri}\n${resourceText(item)}` : resourceText(item))).join('\n\n');
}

export function promptText(result: GetPromptResult): string {
  const lines = result.description ? [`${result.description}\n`] : [];
  for (const message of result.messages) lines.push(`[${message.role}]\n${contentText(message.content as Content)}`);
  return lines.join('\n\n');
}
