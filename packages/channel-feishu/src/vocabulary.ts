import { defineVocabulary } from "@chorus/core";

/**
 * Feishu's reaction set: every `emoji_type` the message reaction API takes, in the order of
 * Feishu's official table ("表情文案说明", open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/reference/
 * im-v1/message-reaction/emojis-introduce; its 182 keys as Larksuite's own CLI reference for
 * im.reactions enumerates them). The names are case-sensitive and mixed-case: `ThumbsDown`, `Fire`,
 * `CheckMark`. Feishu refuses any other spelling (`THUMBSDOWN`, `FIRE`) with code 231001.
 */
export const FEISHU_EMOJI_TYPES: readonly string[] = `
OK THUMBSUP THANKS MUSCLE FINGERHEART APPLAUSE FISTBUMP JIAYI DONE SMILE BLUSH LAUGH SMIRK LOL FACEPALM LOVE
WINK PROUD WITTY SMART SCOWL THINKING SOB CRY ERROR NOSEPICK HAUGHTY SLAP SPITBLOOD TOASTED GLANCE DULL
INNOCENTSMILE JOYFUL WOW TRICK YEAH ENOUGH TEARS EMBARRASSED KISS SMOOCH DROOL OBSESSED MONEY TEASE SHOWOFF
COMFORT CLAP PRAISE STRIVE XBLUSH SILENT WAVE WHAT FROWN SHY DIZZY LOOKDOWN CHUCKLE WAIL CRAZY WHIMPER HUG
BLUBBER WRONGED HUSKY SHHH SMUG ANGRY HAMMER SHOCKED TERROR PETRIFIED SKULL SWEAT SPEECHLESS SLEEP DROWSY
YAWN SICK PUKE BETRAYED HEADSET EatingFood MeMeMe Sigh Typing Lemon Get LGTM OnIt OneSecond VRHeadset
YouAreTheBest SALUTE SHAKE HIGHFIVE UPPERLEFT ThumbsDown SLIGHT TONGUE EYESCLOSED RoarForYou CALF BEAR BULL
RAINBOWPUKE ROSE HEART PARTY LIPS BEER CAKE GIFT CUCUMBER Drumstick Pepper CANDIEDHAWS BubbleTea Coffee Yes
No OKR CheckMark CrossMark MinusOne Hundred AWESOMEN Pin Alarm Loudspeaker Trophy Fire BOMB Music XmasTree
Snowman XmasHat FIREWORKS 2022 REDPACKET FORTUNE LUCK FIRECRACKER StickyRiceBalls HEARTBROKEN POOP
StatusFlashOfInspiration 18X CLEAVER Soccer Basketball GeneralDoNotDisturb Status_PrivateMessage
GeneralInMeetingBusy StatusReading StatusInFlight GeneralBusinessTrip GeneralWorkFromHome StatusEnjoyLife
GeneralTravellingCar StatusBus GeneralSun GeneralMoonRest MoonRabbit Mooncake JubilantRabbit TV Movie Pumpkin
BeamingFace Delighted ColdSweat FullMoonFace Partying GoGoGo ThanksFace SaluteFace Shrug ClownFace HappyDragon
`
  .trim()
  .split(/\s+/u);

/**
 * The unicode emoji each `emoji_type` is shown as, where one says the same thing (Feishu draws
 * its own artwork; many of its faces and stickers — JIAYI "+1", NOSEPICK, LGTM — have no unicode
 * counterpart and are reached by name only). Each emoji maps onto one name, so a unicode reaction
 * always lands on the same `emoji_type`.
 */
export const EMOJI_OF_TYPE: Readonly<Record<string, string>> = {
  OK: "👌",
  THUMBSUP: "👍",
  THANKS: "🙏",
  MUSCLE: "💪",
  FINGERHEART: "🫰",
  APPLAUSE: "👏",
  FISTBUMP: "👊",
  SMILE: "😄",
  BLUSH: "😊",
  LAUGH: "😂",
  SMIRK: "😏",
  LOL: "🤣",
  FACEPALM: "🤦",
  LOVE: "😍",
  WINK: "😉",
  PROUD: "😎",
  SMART: "🤓",
  THINKING: "🤔",
  SOB: "😭",
  CRY: "😢",
  GLANCE: "👀",
  DULL: "😐",
  INNOCENTSMILE: "😇",
  WOW: "😮",
  YEAH: "✌️",
  EMBARRASSED: "😅",
  KISS: "😘",
  DROOL: "🤤",
  OBSESSED: "🥰",
  MONEY: "🤑",
  TEASE: "😜",
  XBLUSH: "😳",
  SILENT: "🤐",
  WAVE: "👋",
  FROWN: "☹️",
  DIZZY: "😵",
  CHUCKLE: "🤭",
  CRAZY: "🤪",
  WHIMPER: "🥺",
  HUG: "🤗",
  SHHH: "🤫",
  ANGRY: "😡",
  HAMMER: "🔨",
  SHOCKED: "😱",
  TERROR: "😨",
  SKULL: "💀",
  SWEAT: "😓",
  SPEECHLESS: "😑",
  SLEEP: "😴",
  DROWSY: "😪",
  YAWN: "🥱",
  SICK: "🤒",
  PUKE: "🤮",
  HEADSET: "🎧",
  Sigh: "😮‍💨",
  Typing: "⌨️",
  Lemon: "🍋",
  VRHeadset: "🥽",
  SHAKE: "🤝",
  ThumbsDown: "👎",
  SLIGHT: "🙂",
  TONGUE: "😛",
  BEAR: "🐻",
  BULL: "🐂",
  ROSE: "🌹",
  HEART: "❤️",
  PARTY: "🎉",
  LIPS: "💋",
  BEER: "🍺",
  CAKE: "🎂",
  GIFT: "🎁",
  CUCUMBER: "🥒",
  Drumstick: "🍗",
  Pepper: "🌶️",
  BubbleTea: "🧋",
  Coffee: "☕",
  CheckMark: "✅",
  CrossMark: "❌",
  Hundred: "💯",
  Pin: "📌",
  Alarm: "⏰",
  Loudspeaker: "📢",
  Trophy: "🏆",
  Fire: "🔥",
  BOMB: "💣",
  Music: "🎵",
  XmasTree: "🎄",
  Snowman: "⛄",
  FIREWORKS: "🎆",
  REDPACKET: "🧧",
  LUCK: "🍀",
  FIRECRACKER: "🧨",
  HEARTBROKEN: "💔",
  POOP: "💩",
  StatusFlashOfInspiration: "💡",
  "18X": "🔞",
  CLEAVER: "🔪",
  Soccer: "⚽",
  Basketball: "🏀",
  StatusReading: "📖",
  StatusInFlight: "✈️",
  GeneralBusinessTrip: "💼",
  GeneralWorkFromHome: "🏠",
  GeneralTravellingCar: "🚗",
  StatusBus: "🚌",
  GeneralSun: "☀️",
  GeneralMoonRest: "🌙",
  MoonRabbit: "🐰",
  Mooncake: "🥮",
  TV: "📺",
  Movie: "🎬",
  Pumpkin: "🎃",
  BeamingFace: "😁",
  ColdSweat: "😰",
  FullMoonFace: "🌝",
  Partying: "🥳",
  SaluteFace: "🫡",
  Shrug: "🤷",
  ClownFace: "🤡",
  HappyDragon: "🐉",
};

/**
 * The closed vocabulary (DESIGN §2.2 rule 9): unicode, shortcodes (through core's emoji data)
 * and the native names, which match whatever their case (`THUMBSDOWN` finds `ThumbsDown`), so
 * the canonical spelling is what reaches Feishu.
 */
export const feishuVocabulary = defineVocabulary(
  FEISHU_EMOJI_TYPES.map((name) => {
    const emoji = EMOJI_OF_TYPE[name];
    return emoji === undefined ? { name } : { name, matches: [emoji] };
  }),
);

/** The emoji a person sees for an `emoji_type`; a name without unicode (or one Feishu added since) stays as it is. */
export const emojiOfType = (emojiType: string): string => EMOJI_OF_TYPE[emojiType] ?? emojiType;
