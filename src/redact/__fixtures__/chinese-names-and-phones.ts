/**
 * Chinese personal names (two to four Han characters, a common surname first) next to a mainland mobile
 * number (11 digits, `1[3-9]…`, written whole, 3-4-4, or with +86), as order, CRM, SMS and delivery
 * services put them in errors, in Chinese and in English text. Names and numbers are invented.
 */

import { classCases } from './class-cases.js';
import type { HostileErrorMessage } from './hostile-error-messages.js';

const personal = classCases('personal', 'Chinese name next to a phone number');

export const CHINESE_NAME_AND_PHONE_MESSAGES: readonly HostileErrorMessage[] = [
  personal('name, space, number', '用户已存在：张伟 13812345678', ['张伟', '13812345678']),
  personal('contact line with a phone label', '联系人：王芳，电话 13912345678，地址不完整', [
    '王芳',
    '13912345678',
  ]),
  personal('number in parentheses, 3-4-4', '收货人: 李娜 (138-1234-5678) 地址无效', [
    '李娜',
    '138-1234-5678',
  ]),
  personal('English duplicate-customer error', 'Duplicate customer: 陈静 / 15012345678', [
    '陈静',
    '15012345678',
  ]),
  personal('SMS gateway failure', '短信发送失败：刘洋 18612345678 号码已停机', ['刘洋', '18612345678']),
  personal(
    'three-character name in an English order error',
    'Order 88213: recipient 杨秀英, phone 17712345678, address not deliverable',
    ['杨秀英', '17712345678'],
  ),
  personal('possessive with a phone word', '黄磊的手机号 13511112222 格式不正确', ['黄磊', '13511112222']),
  personal('compound surname', '绑定失败：欧阳娜娜 18811112222 已被其他账号使用', [
    '欧阳娜娜',
    '18811112222',
  ]),
  personal('number first, name in full-width parentheses', '呼叫失败 15923456789（赵敏）', [
    '赵敏',
    '15923456789',
  ]),
  personal('international form, name after', 'Twilio 21610: +86 139 8765 4321 (周杰) has opted out', [
    '周杰',
    '139 8765 4321',
  ]),
  personal('JSON-like log fragment', 'CRM sync rejected: {name: 吴秀兰, mobile: 13698765432}', [
    '吴秀兰',
    '13698765432',
  ]),
  personal('courier label', '顺丰下单失败，寄件人 徐丽 电话 137-0000-1111 不在服务范围', [
    '徐丽',
    '137-0000-1111',
  ]),
  personal('name directly before the number', '重复注册：孙浩18700001234', ['孙浩', '18700001234']),
  personal('name and number with a slash', 'Lead import row 12: 马超/15800002222 already assigned', [
    '马超',
    '15800002222',
  ]),
  personal('spaces inside the number', '会员 朱琳 手机 139 0000 3333 未验证', ['朱琳', '139 0000 3333']),
  personal('colon after the number', 'SMS quota exceeded for 18900004444: 胡军', ['胡军', '18900004444']),
  personal('two people in one message', '冲突：郭涛 13300005555 与 何静 13300006666 使用同一身份', [
    '郭涛',
    '13300005555',
    '何静',
    '13300006666',
  ]),
  personal('name with a title', '预约失败：高翔先生 15100007777 的时段已满', ['高翔', '15100007777']),
  personal('comma-separated CSV row', 'Invalid row: 林峰,17600008888,上海市浦东新区', [
    '林峰',
    '17600008888',
  ]),
  personal('English sentence, name last', 'Phone 13400009999 belongs to 罗敏', ['罗敏', '13400009999']),
  personal('hyphen between name and number', '客户 郑爽 - 19900001111 黑名单', ['郑爽', '19900001111']),
  personal('WeChat pay notice', '退款失败：付款人 梁晓红（手机号 16600002222）账户异常', [
    '梁晓红',
    '16600002222',
  ]),
];
