import { sampleMedium } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { anthropicImages, googleImages, ollamaImages, openAIImages } from "./fake-images.js";

const png = sampleMedium("image").bytes;
const b64 = Buffer.from(png).toString("base64");

describe("the provider fakes read images as their APIs do, and refuse what their APIs refuse", () => {
  it("OpenAI: a data URL of a PNG, JPEG, GIF or WebP", () => {
    const body = (url: string) => ({
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }],
    });
    expect(openAIImages(body(`data:image/png;base64,${b64}`))).toEqual({
      images: [{ mediaType: "image/png", bytes: png }],
    });
    expect(openAIImages(body("data:image/png;base64,bm90IGFuIGltYWdl"))).toMatchObject({
      refusal: { status: 400, body: { error: { code: "invalid_image_format" } } },
    });
  });

  it("Anthropic: a base64 source whose declared type matches its bytes", () => {
    const body = (media_type: string) => ({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            { type: "image", source: { type: "base64", media_type, data: b64 } },
          ],
        },
      ],
    });
    expect(anthropicImages(body("image/png"))).toEqual({ images: [{ mediaType: "image/png", bytes: png }] });
    expect(anthropicImages(body("image/jpeg"))).toEqual({
      refusal: {
        status: 400,
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message:
              "messages.0.content.1.image.source.base64: The image was specified using the image/jpeg media type, but the image appears to be a image/png image",
          },
        },
      },
    });
    expect(anthropicImages(body("image/heic"))).toMatchObject({ refusal: { status: 400 } });
  });

  it("Gemini: inlineData with base64 data", () => {
    expect(
      googleImages({
        contents: [{ role: "user", parts: [{ text: "hi" }, { inlineData: { mimeType: "image/png", data: b64 } }] }],
      }),
    ).toEqual({
      images: [{ mediaType: "image/png", bytes: png }],
    });
    expect(
      googleImages({ contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: "%%%" } }] }] }),
    ).toMatchObject({
      refusal: { status: 400 },
    });
  });

  it("Ollama: base64 strings; bytes serialised as a JSON object fail its decoding", () => {
    expect(ollamaImages({ messages: [{ role: "user", content: "hi", images: [b64] }] })).toEqual({
      images: [{ mediaType: "image/png", bytes: png }],
    });
    const asObject = JSON.parse(JSON.stringify({ messages: [{ role: "user", content: "hi", images: [png] }] }));
    expect(ollamaImages(asObject)).toEqual({
      refusal: {
        status: 400,
        body: {
          error: "json: cannot unmarshal object into Go struct field Message.messages.images of type api.ImageData",
        },
      },
    });
  });
});
