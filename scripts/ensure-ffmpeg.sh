#!/usr/bin/env bash
# The WhatsApp channel turns a voice note that is no Ogg/Opus into one with ffmpeg (WhatsApp plays
# only those), and its tests transcode with Debian's ffmpeg. Install it when it is missing and this
# machine can.
set -euo pipefail
command -v ffmpeg >/dev/null 2>&1 && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "Installing Debian ffmpeg for the WhatsApp voice-note tests…" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null
  exit 0
fi
echo "error: the WhatsApp voice-note tests need ffmpeg on PATH; install it with: sudo apt-get install -y ffmpeg" >&2
exit 1
