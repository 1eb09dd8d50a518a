"""Where someone lives, said by the place they come to visit from (我婆婆从安庆过来)."""

from __future__ import annotations

import pytest
from test_extract_chat import chat


@pytest.mark.parametrize(("text", "fact"), [
    ("年夜饭今年在我们家吃 我婆婆从安庆过来 她要做她拿手的臭鳜鱼",
     ("婆婆", "lives_in", "安庆", False)),
    ("我妈从扬州过来帮我们带", ("妈妈", "lives_in", "扬州", False)),
])
def test_someone_visiting_from_a_place_lives_there(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["我弟从广州回来了", "我妈从超市过来", "我从上海过来的"])
def test_a_return_a_shop_or_the_user_is_no_home(text):
    assert not {f for f in chat(text) if f[1] == "lives_in"}


@pytest.mark.parametrize(("text", "fact"), [
    ("同事李娟 教数学的 贵州遵义人 海鲜过敏", ("同事", "is_from", "贵州遵义", False)),
    ("阿姨找到了 王阿姨 安徽六安的 五十出头", ("王阿姨", "is_from", "安徽六安", False)),
    ("下周三我室友思琪生日 她重庆的 芒果过敏", ("室友", "is_from", "重庆", False)),
])
def test_a_place_said_alone_after_someone_is_where_they_are_from(text, fact):
    assert fact in chat(text)


def test_a_place_said_alone_after_another_name_is_not_the_carried_subject():
    assert not {f for f in chat("我女儿小欣说想学护理 随她嘛 店里小陈四月底就走了 新招了个阿梅 "
                                "贵州遵义的 二十三岁") if f[1] == "is_from"}
