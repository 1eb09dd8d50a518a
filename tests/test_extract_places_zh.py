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
