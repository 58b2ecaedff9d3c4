import type { UploadKind } from "@chorus/core";

/** One sample medium: real bytes of its kind, small enough for every platform's limits. */
export interface SampleMedium {
  readonly kind: UploadKind;
  readonly bytes: Uint8Array;
  readonly mime: string;
  readonly filename: string;
}

/**
 * Tiny but valid files of each kind (made with ffmpeg: a 16×16 PNG, a one-second H.264 MP4, a
 * half-second MP3 and Opus-in-Ogg tone, a 512×512 WebP as Telegram wants stickers, and a one-page
 * PDF whose text is "Chorus sample document"), so a fake that checks what it was sent, as its
 * platform does, accepts them.
 */
const SAMPLES: Record<UploadKind, { base64: string; mime: string; filename: string }> = {
  image: {
    mime: "image/png",
    filename: "image.png",
    base64:
      "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAACXBIWXMAAAABAAAAAQBPJcTWAAAAFklEQVR4nGPwy/xHEmIY" +
      "1TCqYfhqAACiNLUQAFvjBAAAAABJRU5ErkJggg==",
  },
  video: {
    mime: "video/mp4",
    filename: "video.mp4",
    base64:
      "AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDEAAAMWbW9vdgAAAGxtdmhkAAAAAAAAAAAAAAAAAAAD6AAAA+gAAQAA" +
      "AQAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" +
      "AAAAAgAAAkB0cmFrAAAAXHRraGQAAAADAAAAAAAAAAAAAAABAAAAAAAAA+gAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAA" +
      "AAAAAAABAAAAAAAAAAAAAAAAAABAAAAAACAAAAAgAAAAAAAkZWR0cwAAABxlbHN0AAAAAAAAAAEAAAPoAAAAAAABAAAAAAG4" +
      "bWRpYQAAACBtZGhkAAAAAAAAAAAAAAAAAABAAAAAQABVxAAAAAAALWhkbHIAAAAAAAAAAHZpZGUAAAAAAAAAAAAAAABWaWRl" +
      "b0hhbmRsZXIAAAABY21pbmYAAAAUdm1oZAAAAAEAAAAAAAAAAAAAACRkaW5mAAAAHGRyZWYAAAAAAAAAAQAAAAx1cmwgAAAA" +
      "AQAAASNzdGJsAAAAv3N0c2QAAAAAAAAAAQAAAK9hdmMxAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAACAAIABIAAAASAAAAAAA" +
      "AAABFUxhdmM1OS4zNy4xMDAgbGlieDI2NAAAAAAAAAAAAAAAGP//AAAANWF2Y0MBZAAK/+EAGGdkAAqs2UlsBEAAAAMAQAAA" +
      "AwCDxIllgAEABmjr48siwP34+AAAAAAQcGFzcAAAAAEAAAABAAAAFGJ0cnQAAAAAAAAWgAAAFoAAAAAYc3R0cwAAAAAAAAAB" +
      "AAAAAQAAQAAAAAAcc3RzYwAAAAAAAAABAAAAAQAAAAEAAAABAAAAFHN0c3oAAAAAAAAC0AAAAAEAAAAUc3RjbwAAAAAAAAAB" +
      "AAADRgAAAGJ1ZHRhAAAAWm1ldGEAAAAAAAAAIWhkbHIAAAAAAAAAAG1kaXJhcHBsAAAAAAAAAAAAAAAALWlsc3QAAAAlqXRv" +
      "bwAAAB1kYXRhAAAAAQAAAABMYXZmNTkuMjcuMTAwAAAACGZyZWUAAALYbWRhdAAAAq0GBf//qdxF6b3m2Ui3lizYINkj7u94" +
      "MjY0IC0gY29yZSAxNjQgcjMwOTUgYmFlZTQwMCAtIEguMjY0L01QRUctNCBBVkMgY29kZWMgLSBDb3B5bGVmdCAyMDAzLTIw" +
      "MjIgLSBodHRwOi8vd3d3LnZpZGVvbGFuLm9yZy94MjY0Lmh0bWwgLSBvcHRpb25zOiBjYWJhYz0xIHJlZj0zIGRlYmxvY2s9" +
      "MTowOjAgYW5hbHlzZT0weDM6MHgxMTMgbWU9aGV4IHN1Ym1lPTcgcHN5PTEgcHN5X3JkPTEuMDA6MC4wMCBtaXhlZF9yZWY9" +
      "MSBtZV9yYW5nZT0xNiBjaHJvbWFfbWU9MSB0cmVsbGlzPTEgOHg4ZGN0PTEgY3FtPTAgZGVhZHpvbmU9MjEsMTEgZmFzdF9w" +
      "c2tpcD0xIGNocm9tYV9xcF9vZmZzZXQ9LTIgdGhyZWFkcz0xIGxvb2thaGVhZF90aHJlYWRzPTEgc2xpY2VkX3RocmVhZHM9" +
      "MCBucj0wIGRlY2ltYXRlPTEgaW50ZXJsYWNlZD0wIGJsdXJheV9jb21wYXQ9MCBjb25zdHJhaW5lZF9pbnRyYT0wIGJmcmFt" +
      "ZXM9MyBiX3B5cmFtaWQ9MiBiX2FkYXB0PTEgYl9iaWFzPTAgZGlyZWN0PTEgd2VpZ2h0Yj0xIG9wZW5fZ29wPTAgd2VpZ2h0" +
      "cD0yIGtleWludD0yNTAga2V5aW50X21pbj0xIHNjZW5lY3V0PTQwIGludHJhX3JlZnJlc2g9MCByY19sb29rYWhlYWQ9NDAg" +
      "cmM9Y3JmIG1idHJlZT0xIGNyZj0yMy4wIHFjb21wPTAuNjAgcXBtaW49MCBxcG1heD02OSBxcHN0ZXA9NCBpcF9yYXRpbz0x" +
      "LjQwIGFxPTE6MS4wMACAAAAAG2WIhAAV//7sz34FMj+y/QRyNRObnXje6EP/gQ==",
  },
  audio: {
    mime: "audio/mpeg",
    filename: "audio.mp3",
    base64:
      "SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU5LjI3LjEwMAAAAAAAAAAAAAAA//NYwAAAAAAAAAAAAEluZm8AAAAPAAAAEAAA" +
      "BTQAMDAwMDAwPj4+Pj4+TExMTExMWVlZWVlZZ2dnZ2dnZ3V1dXV1dYODg4ODg5GRkZGRkZ+fn5+fn5+srKysrKy6urq6urrI" +
      "yMjIyMjW1tbW1tbW5OTk5OTk8vLy8vLy////////AAAAAExhdmM1OS4zNwAAAAAAAAAAAAAAACQCgAAAAAAAAAU0XiLsbwAA" +
      "AAAAAAAAAAAA//MoxAALsALNv0EYAqkAZLh/+AAD4Pg+D58EIPg+CDjkuD4Pg/wQdg+f/5QP8HDmIAf1g4c0A/wI7n+haUoF" +
      "//4NAE9feP39//MoxAwQMOaIAZuQADCi84RmBhkcYogUUPHFQHyDeEPhAcYt6ADqHcxAhzhzij/kVIqZF4vf+iiYiI99YKiI" +
      "9/BV///7kadq//MoxAYOQHY4Ad4QALyAuEYAoEwCBuMDYF0wsB5TTgGGN/0gYxXxdDDmCvMJISMLg6mBcAKj69T9WpkV////" +
      "6f///Kld5dpf//MoxAgOWGowAOe2gNCoEBgTMAi4wsbzLNuMmryg1QR5jBGBdMdBDhrMys1BSMiK06Kzwxv/r/////q///3q" +
      "///86SH4Sz0R//MoxAkO8G4wAOe2gAAAoTMHDAxeczP1oMtnow2GB6jCzCbNXWTjt4y04BR+lw68Ul9ICf////R//2f//0f/" +
      "pv//+7JGytKU//MoxAgO4G4sAN+4gLiYFHisMXAFjn5ChqmhPHaYB8YjYL5kVBmENQF0QSBNVJsMem6gZd//////+z//9yP/" +
      "0or///3TP6zp//MoxAcMsGo0AOe2gCGLcgkFGBBCYbKxmCVmULkyauwxpgrgfGECZtN4Y8bAoxTWcWLWR7P///++///9U8Ui" +
      "zckywsCDAIhM//MoxA8LkG44AOe2gShWMkx0xzLxzPnGFMHAHAzo2NthzHhsSJFnwJL7FsMq///9TcGQC01PMSEAUdmiBh2q" +
      "SaBBl5xQg7mG//MoxBsMWG40AN+4gKAoGNjAYdn4IMIwBmFwRN1Mw9////0VpYaZyoCgmBAGYKKGOIJsfYZQlJRq5idGC8BK" +
      "DQGDBOC9MBMD//MoxCQLQG44AAb8KFBQDyuX6ltri////diRvyvEkAAhCIAFhhM0mQKoYzO9Rm6DmGDaEGaGbnBOhlIkLHac" +
      "DzyCfsBH//////MoxDIMsG40AOe2gKX///3MR+PPMrwMBzFAAzkXOYaDN3SMN2oJ4wuQTzGJTMTQ4Ak4LgFuETmK+An///3N" +
      "PqzpIYu6YCBG//MoxDoLQG44AN+4gRwqZahHCe5mZ1Zm3AKKYQ4DBAXmn+hiSUYgAp1O7GqXpb////oV///8LsNtfTkRUEgA" +
      "DAbBBMEcGkw3//MoxEgMkG40AN+2gETExIpFTB5DTC4AACAsCAVzAQALMBQApFBglDTz4d1gEggf/8LWDIF9eXv+GAswOExw" +
      "tmTDwYGERwwj//MoxFAM8HZAAV4YAJYQRm0YhYuHhPhArGTQAUjAPDAWAf4oAaoyZA//I4iBMGJP//lMyJwwMSf//zqRocRN" +
      "2/6QgAyYQ//A//MoxFcYGXKAK5ygAGGwSAYbBL//uSoG5dw1EiVOaAQCsiAUWOqSOmkSJEkFGhQ2KDYgrgp0IbiL6CuCnZHY" +
      "i/BXQvyG9N+K//MoxDEMkF6QWcYIAeyqTEFNRTMuMTAwqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq" +
      "qqqqqqqqqqqq",
  },
  voice: {
    mime: "audio/ogg",
    filename: "voice.ogg",
    base64:
      "T2dnUwACAAAAAAAAAADdTkjsAAAAAMDTlGMBE09wdXNIZWFkAQE4AYC7AAAAAABPZ2dTAAAAAAAAAAAAAN1OSOwBAAAAEAx9" +
      "hgE+T3B1c1RhZ3MNAAAATGF2ZjU5LjI3LjEwMAEAAAAdAAAAZW5jb2Rlcj1MYXZjNTkuMzcuMTAwIGxpYm9wdXNPZ2dTAAT4" +
      "XgAAAAAAAN1OSOwCAAAA5sc9LxoXFxESExAQFBITExUUDxEWEA8TEBIPDx8dFAiC4jRFRViat+CIYZ6h6NaH6eEDslqgCKNA" +
      "6AM8NKIzSXGtsrmd44YAkSi2hlAInVXw5F373AQqhHdzHL1k+AidX7B3MqpXPgECbRazmSkPDAidX7B3MqpeWCLnpbuPIDqJ" +
      "0YAInXOgPermm7Ec2+SopvLNCJ1fsHcyqlwzV0UD7BsfXQidAEzyCcV/MT1aBN+ri2aSiUeMCJyQK+NOWngd7AD8Gfd0vrJU" +
      "CJyQK+NOWn4N46bj4WGLF1oQoAickCvjS5tMh6XxadSb++YbL0UInJAr405aeBDzJq+sPZrJNIaT30AInJAr405aeuSlC/C0" +
      "jHWfAuQGgAickCvjTlp4HoBqSnOmRgickCvjTlp7BIGn8H/grnccCJyXeOCHVn0jPOCageLH5c57rujugAickCvjTlp7BHaW" +
      "FSunAfsInIyaBAEZDxyFfmPVC3gInJArWHKuZtma9qKJ9lYwHdG2CJyQK+NOWnr7DSM9IQ7ioAicl3jgh1Z8ygN7f9RRoKsm" +
      "6AickCvjTlp7BHaYmqzkwAicjJoEARkPHIWFfoYeJAid16U06KlHRUwWQU49nFS/P39Bbs79MU7an8oX9bkIoG9PLmfHamIr" +
      "ZJxbVGrKcLuuJppDCH3UqvmgKAiDECSKk2oWQC0DE6QjpW49ZY+A",
  },
  file: {
    mime: "application/pdf",
    filename: "file.pdf",
    base64:
      "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5" +
      "cGUgL1BhZ2VzIC9LaWRzIFszIDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL1BhZ2UgL1BhcmVu" +
      "dCAyIDAgUiAvTWVkaWFCb3ggWzAgMCAzMDAgMTAwXSAvQ29udGVudHMgNCAwIFIgL1Jlc291cmNlcyA8PCAvRm9udCA8PCAv" +
      "RjEgNSAwIFIgPj4gPj4gPj4KZW5kb2JqCjQgMCBvYmoKPDwgL0xlbmd0aCA1MiA+PgpzdHJlYW0KQlQgL0YxIDE0IFRmIDIw" +
      "IDUwIFRkIChDaG9ydXMgc2FtcGxlIGRvY3VtZW50KSBUaiBFVAplbmRzdHJlYW0KZW5kb2JqCjUgMCBvYmoKPDwgL1R5cGUg" +
      "L0ZvbnQgL1N1YnR5cGUgL1R5cGUxIC9CYXNlRm9udCAvSGVsdmV0aWNhID4+CmVuZG9iagp4cmVmCjAgNgowMDAwMDAwMDAw" +
      "IDY1NTM1IGYgCjAwMDAwMDAwMDkgMDAwMDAgbiAKMDAwMDAwMDA1OCAwMDAwMCBuIAowMDAwMDAwMTE1IDAwMDAwIG4gCjAw" +
      "MDAwMDAyNDEgMDAwMDAgbiAKMDAwMDAwMDM0MyAwMDAwMCBuIAp0cmFpbGVyCjw8IC9TaXplIDYgL1Jvb3QgMSAwIFIgPj4K" +
      "c3RhcnR4cmVmCjQxMwolJUVPRgo=",
  },
  sticker: {
    mime: "image/webp",
    filename: "sticker.webp",
    base64: "UklGRi4AAABXRUJQVlA4TCIAAAAv/8F/AAfQtT7Vv/8BgUCyv/cMRfQ/4z//+c9//vOf//wf",
  },
};

/** A sample medium of `kind`: fresh bytes each call, so a test may change them. */
export function sampleMedium(kind: UploadKind): SampleMedium {
  const sample = SAMPLES[kind];
  return {
    kind,
    bytes: new Uint8Array(Buffer.from(sample.base64, "base64")),
    mime: sample.mime,
    filename: sample.filename,
  };
}

/** The text inside the sample PDF. */
export const SAMPLE_PDF_TEXT = "Chorus sample document";
