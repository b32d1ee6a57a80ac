// How a hosted OpenAI-wire provider treats the images of a request, for the
// stand-in upstreams: it must download every image URL itself, so a private
// address (Cabin's own screenshot links on 127.0.0.1, any loopback or LAN URL)
// fails the request with OpenAI's own error — HTTP 400,
// {"error": {"message": "Error while downloading <url>.", "type": "invalid_request_error",
// "param": null, "code": "invalid_image_url"}} — and only inline data URLs get
// through. Each inline image is decoded as a PNG (`decodePng`), so a test can
// assert what the model was shown and at which size.
import { decodePng } from "./png";

export interface SeenImage {
  width: number;
  height: number;
  /** Where it was in the request: "messages[2].content[1]", "input[0].content[1]", "input[3].output". */
  at: string;
}

export interface ImageVerdict {
  images: SeenImage[];
  /** Set when the provider refuses the request: the status and body it answers. */
  refusal?: { status: number; body: unknown };
}

type Json = Record<string, any>;

/**
 * Every image URL of a chat (messages[].content[].image_url.url) or Responses (input_image, computer_call_output) body.
 */
export function imageUrlsOf(body: Json): Array<{ url: string; at: string }> {
  const found: Array<{ url: string; at: string }> = [];
  (Array.isArray(body.messages) ? body.messages : []).forEach((m: Json, i: number) => {
    if (Array.isArray(m.content))
      m.content.forEach((p: Json, j: number) => {
        if (p?.type === "image_url") found.push({ url: String(p.image_url?.url), at: `messages[${i}].content[${j}]` });
      });
  });
  (Array.isArray(body.input) ? body.input : []).forEach((item: Json, i: number) => {
    if (item?.type === "computer_call_output")
      found.push({ url: String(item.output?.image_url), at: `input[${i}].output` });
    if (Array.isArray(item?.content))
      item.content.forEach((p: Json, j: number) => {
        if (p?.type === "input_image") found.push({ url: String(p.image_url), at: `input[${i}].content[${j}]` });
      });
  });
  return found;
}

const refuse = (message: string, code: string) => ({
  status: 400,
  body: { error: { message, type: "invalid_request_error", param: null, code } },
});

export function judgeImages(body: Json): ImageVerdict {
  const images: SeenImage[] = [];
  for (const { url, at } of imageUrlsOf(body)) {
    const data = /^data:image\/png;base64,(.*)$/s.exec(url);
    if (!data) return { images, refusal: refuse(`Error while downloading ${url}.`, "invalid_image_url") };
    try {
      const png = decodePng(Buffer.from(data[1]!, "base64"));
      images.push({ width: png.width, height: png.height, at });
    } catch {
      return {
        images,
        refusal: refuse(
          "You uploaded an unsupported image. Please make sure your image is valid.",
          "invalid_image_format",
        ),
      };
    }
  }
  return { images };
}
