"""Card geometry: outlines from a corner, and patches cut from an outline."""

import cv2
import numpy as np

from vision.geometry import card_quad_from_corner, quad_center, rotate_quad, sample_patch


def test_a_card_outline_follows_the_two_side_directions_from_its_index_corner() -> None:
    quad = card_quad_from_corner(np.array([100.0, 50.0]), np.array([0.0, 1.0]), np.array([-1.0, 0.0]), 63, 88)
    assert quad.tolist() == [[100, 50], [100, 113], [12, 113], [12, 50]]
    assert quad_center(quad).tolist() == [56.0, 81.5]


def test_rotating_a_quad_by_two_starts_it_at_the_opposite_corner() -> None:
    quad = np.array([[0, 0], [1, 0], [1, 2], [0, 2]], float)
    assert rotate_quad(quad, 2).tolist() == [[1, 2], [0, 2], [0, 0], [1, 0]]


def test_the_index_patch_is_the_top_left_region_of_the_card_whatever_its_angle() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    image[20:40, 20:30] = 255  # top-left of a card spanning 20..120 x 20..160
    upright = np.array([[20, 20], [120, 20], [120, 160], [20, 160]], float)
    patch = sample_patch(image, upright, (20, 40), fx=0.1, fy=1 / 7)
    assert patch.mean() > 200
    turned = rotate_quad(upright, 2)
    assert sample_patch(image, turned, (20, 40), fx=0.1, fy=1 / 7).mean() < 5


def test_patches_warped_in_one_batch_match_patches_warped_one_by_one_even_past_remaps_row_limit() -> None:
    from vision.geometry import patch_homographies, warp_patches

    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8), (0, 0), 2)
    quad = np.array([[100.0, 50.0], [160.0, 60.0], [150.0, 140.0], [90.0, 130.0]])
    quads = np.stack([quad + rng.uniform(-20, 20, 2) for _ in range(1000)])  # 36,000 rows of patches
    batch = warp_patches(image, patch_homographies(quads, (20, 36)), (20, 36))
    assert batch.shape == (1000, 36, 20, 3)
    for k in (0, 500, 999):
        assert np.array_equal(batch[k], sample_patch(image, quads[k], (20, 36)))


def test_a_strip_beside_the_index_is_the_same_region_whether_sampled_or_warped_in_a_batch() -> None:
    from vision.geometry import STRIPS, patch_homographies, warp_patches

    image = np.zeros((200, 200, 3), np.uint8)
    image[20:40, 60:120] = 255  # the card [50, 150] x [20, 160] has a white band along its top past the index
    card = np.array([[50.0, 20.0], [150.0, 20.0], [150.0, 160.0], [50.0, 160.0]])
    top = STRIPS[0]
    assert top.name == "top"
    patch = sample_patch(image, card, top.size, top.fx, top.fy, top.origin)
    assert patch[: top.size[1] // 2].mean() > 200 and patch[-3:].mean() < 5
    batch = warp_patches(image, patch_homographies(card[None], top.size, top.fx, top.fy, top.origin), top.size)
    assert np.array_equal(batch[0], patch)


def test_the_strips_of_another_index_region_lie_beside_it_and_its_own_grow_or_shrink_with_it() -> None:
    from vision.geometry import INDEX_REGIONS, STRIPS, index_strips

    assert index_strips(INDEX_REGIONS[0]) is STRIPS
    for fx, fy in INDEX_REGIONS[1:]:
        strips = {strip.name: strip for strip in index_strips((fx, fy))}
        assert [s.name for s in index_strips((fx, fy))] == [s.name for s in STRIPS]
        assert strips["top"].origin == (fx, 0.0) and strips["side"].origin == (0.0, fy)
        for name in ("suit", "rank"):  # inside the index, at the same pixel size: read coarser as the index grows
            strip = strips[name]
            assert strip.origin[0] + strip.fx <= fx + 1e-9 and strip.origin[1] + strip.fy <= fy + 1e-9
            assert strip.size == next(s.size for s in STRIPS if s.name == name)
        usual = next(s.origin[1] for s in STRIPS if s.name == "suit")
        assert strips["suit"].origin[1] > usual if fy > INDEX_REGIONS[0][1] else strips["suit"].origin[1] < usual
        assert strips["centre"] == next(s for s in STRIPS if s.name == "centre")
