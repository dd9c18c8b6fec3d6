/**
 * Mainland Chinese mobile numbers written without `+86`, and the Chinese personal names written next to
 * a phone number. Run after the international phone rule (personal-patterns.ts).
 */

import { containsAny, hasDigits, IDENTIFIER_DIGITS, type RedactionPattern } from './redaction-pattern.js';

/** 11 digits, `1` then 3–9 (every mainland carrier's range), whole or grouped 3-4-4 by spaces or hyphens. */
const MOBILE = String.raw`1[3-9]\d(?:[ -]?\d{4}){2}`;
/** Han characters and the CJK and full-width punctuation written with them. */
const CJK = String.raw`\p{Script=Han}\u3000-\u303F\uFF00-\uFFEF`;
const PHONE_WORDS = 'phone|mobile|tel|cell|sms|msisdn|whatsapp|wechat';

/**
 * A mainland mobile number where the text is about a person or a phone: Chinese text or a phone word
 * within 12 characters before it, or Chinese text within 12 after. Bare, an 11-digit number in English
 * text may be an order or account number, which a model needs.
 */
const MAINLAND_MOBILE = new RegExp(
  String.raw`(?<![A-Za-z0-9_+])(?:(?<=(?:[${CJK}]|\b(?:${PHONE_WORDS})\b)[^\d\n]{0,12})${MOBILE}|${MOBILE}(?=[^\d\n]{0,12}\p{Script=Han}))(?![A-Za-z0-9_])`,
  'giu',
);

/** 171 common single-character surnames (the hundred most frequent among them) and the compound ones. */
const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许邓韩冯曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱戴严莫孔向常汤康易乔赖文施洪辛柯庄章温牛樊葛邢安齐伍庞颜倪聂鲁岳翟殷申耿关兰焦俞左柳甘祝包宁尚符舒阮柴纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游靳欧管柏卫';
const COMPOUND_SURNAMES =
  '欧阳|司马|上官|诸葛|东方|皇甫|慕容|令狐|尉迟|长孙|宇文|司徒|夏侯|公孙|端木|独孤|南宫|西门';
/** Characters that follow a name in a sentence (`的`, `先生`, `女士`, `手机`) rather than belong to it. */
const NOT_GIVEN = '的是在了和与及或手电号先女已被为把将给向对从';
const NAME = String.raw`(?<!\p{Script=Han})(?:${COMPOUND_SURNAMES}|[${SURNAMES}])(?:(?![${NOT_GIVEN}])\p{Script=Han}){1,2}`;
const PHONE_MARKER = '[redacted:phone]';
const NEAR = String.raw`[^\d\n\[]{0,12}`;

/**
 * A name (two to four Han characters, a common surname first) within 12 characters of a redacted phone
 * number, before or after it.
 */
const NAME_BESIDE_PHONE = new RegExp(
  String.raw`${NAME}(?=${NEAR}\[redacted:phone\])|(?<=\[redacted:phone\]${NEAR})${NAME}`,
  'gu',
);

export const CHINESE_PERSONAL_PATTERNS: readonly RedactionPattern[] = [
  { kind: 'phone', pattern: MAINLAND_MOBILE, mayMatch: (text) => hasDigits(text, IDENTIFIER_DIGITS) },
  { kind: 'name', pattern: NAME_BESIDE_PHONE, mayMatch: containsAny(PHONE_MARKER) },
];
