
BlogitsJ( `Ÿ=Q·X½Oj2=T1†»I¼Os½¸Ê><RÂÀ¼¸Ïß<E½